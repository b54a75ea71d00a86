// Preloaded into each server by ab.mjs (--stamp, with --import): the server's own share of a call's latency, from the
// request's arrival (its 'request' event) to the first socket write of its answer (the whole answer leaves in one write
// when it is ready within one turn, as work{10}'s is). On SIGUSR2 the times so far are written to
// $STAMP_DIR/<pid>.json (a JSON array, ms) and forgotten. A bench instrument only: it patches node:http and node:net
// in the bench's servers.
import { renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const lat = [];
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, ...rest) {
  if (event === 'request' && req.method === 'POST') req.socket.stampedAt = performance.now();
  return emit.call(this, event, req, ...rest);
};
for (const name of ['_writev', '_write']) {
  const write = net.Socket.prototype[name];
  net.Socket.prototype[name] = function (...args) {
    if (this.stampedAt !== undefined) {
      lat.push(performance.now() - this.stampedAt);
      this.stampedAt = undefined;
    }
    return write.apply(this, args);
  };
}
process.on('SIGUSR2', () => {
  const out = `${process.env.STAMP_DIR}/${process.pid}.json`;
  writeFileSync(`${out}.tmp`, JSON.stringify(lat.splice(0)));
  renameSync(`${out}.tmp`, out);
});
