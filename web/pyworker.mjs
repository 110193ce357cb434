// The Python worker: one Pyodide (pyboot.mjs) running worker.py, answering the pages.
//
// Started by glue.js as a dedicated module Worker (the lobby and a table: one page, one
// Python), or as a SharedWorker (embeds: every board of one page, or of one site's page
// with several boards from our origin, shares this one runtime; each board is a client
// with a table of its own). Messages:
//   page -> worker: {id, name, args}    a call of worker.py's function `name`
//                   {bye: true}         the page is going away: forget its table
//   worker -> page: {stage, boot?}      "runtime", "games", "ready" (load progress; with
//                                       ready, how Python started: {ms, snapshot})
//                   {failed, retry}     Python could not start (retry: "bare" when a
//                                       new worker without the snapshot should try)
//                   {id, result} | {id, error}
//                   {runtime: {id, clients}}  on connecting: which runtime this is
const RUNTIME_ID = Math.random().toString(36).slice(2, 10);
let stage = "runtime";
let failure = "";
let api = null;
let nextClient = 0;
const ports = new Set();

function broadcast(message) {
  for (const port of ports) port.postMessage(message);
}

const ready = (async () => {
  const { boot } = await import("./pyboot.mjs");
  // ?boot=snapshot|bare (the page's own ?boot=, for comparing): pyboot.mjs's snapshot modes.
  const asked = new URL(import.meta.url).searchParams.get("boot");
  const started = await boot({
    progress: (name) => { stage = name; broadcast({ stage: name }); },
    snapshot: asked === "snapshot" ? "always" : asked === "bare" ? "never" : "cached",
  });
  const py = started.py;
  const scope = py.globals.get("dict")();
  py.runPython(started.main, { globals: scope, filename: "worker.py" });
  api = { call: scope.get("call"), forget: scope.get("forget"), boot: started.boot };
  stage = "ready";
  broadcast({ stage: "ready", boot: api.boot });
})().catch((err) => {
  failure = String((err && (err.message || err)) || "Python could not start");
  broadcast({ failed: failure, retry: err && err.retryBare ? "bare" : "" });
});

function connect(port) {
  const client = nextClient++;
  ports.add(port);
  port.postMessage({ runtime: { id: RUNTIME_ID, clients: ports.size } });
  if (failure) port.postMessage({ failed: failure, retry: "" });
  else port.postMessage(stage === "ready" ? { stage, boot: api.boot } : { stage });
  port.onmessage = async (event) => {
    const data = event.data || {};
    if (data.bye) {
      ports.delete(port);
      if (api) api.forget(client);
      return;
    }
    const { id, name, args } = data;
    try {
      await ready;
      if (!api) throw new Error(failure || "Python could not start");
      const result = api.call(client, String(name), JSON.stringify(args || []));
      port.postMessage({ id, result });
    } catch (err) {
      port.postMessage({ id, error: String((err && (err.message || err)) || err) });
    }
  };
}

if (typeof SharedWorkerGlobalScope !== "undefined" && self instanceof SharedWorkerGlobalScope) {
  self.onconnect = (event) => { const port = event.ports[0]; connect(port); port.start(); };
} else {
  connect(self);
}
