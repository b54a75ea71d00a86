// Preloaded into each server by ab.mjs (--stamp): the server's own share of a call's latency, from the request's
// arrival (its 'request' event) to the first socket write of its answer (the whole answer leaves in one write when it
// is ready within one turn, as work{10}'s is: see README.md). On SIGUSR2 the times so far are written to $STAMP_DIR/<pid>.json
// (a JSON array, ms) and forgotten. A bench instrument only: it patches node:http and node:net in the bench's servers.
const http = require('node:http');
const net = require('node:net');
const { performance } = require('node:perf_hooks');
const lat = [];
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (ev, req, res) {
  if (ev === 'request' && req.method === 'POST') req.socket.__t0 = performance.now();
  return emit.apply(this, arguments);
};
for (const m of ['_writev', '_write']) {
  const orig = net.Socket.prototype[m];
  net.Socket.prototype[m] = function () {
    if (this.__t0 !== undefined) { lat.push(performance.now() - this.__t0); this.__t0 = undefined; }
    return orig.apply(this, arguments);
  };
}
process.on('SIGUSR2', () => {
  const out = `${process.env.STAMP_DIR}/${process.pid}.json`;
  require('node:fs').writeFileSync(`${out}.tmp`, JSON.stringify(lat.splice(0)));
  require('node:fs').renameSync(`${out}.tmp`, out);
});
