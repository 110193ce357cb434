"""What test modules share (no test module imports another): import from here."""
