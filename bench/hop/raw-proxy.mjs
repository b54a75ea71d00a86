// The floor of one hop: a proxy that parses nothing. Each request's bytes go to the upstream as they came (node:http,
// a keep-alive agent), and the upstream's status, headers and body come back piped, untouched: no JSON-RPC, no
// namespacing, no bounds, no checks. Not a gateway anyone should deploy; it is here so that run.sh (RAW=1) shows in
// the same run what the second HTTP exchange alone costs, which is the least any proxy can add to a direct call.
//   usage: PORT=<port> UP=<upstream url> node raw-proxy.mjs
import { Agent, createServer, request } from 'node:http';

const up = new URL(process.env.UP);
const agent = new Agent({ keepAlive: true, timeout: 4000 });
createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const out = request(
      { host: up.hostname, port: up.port, path: up.pathname, method: req.method, headers: { ...req.headers, host: up.host }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => out.destroy());
    out.end(Buffer.concat(chunks));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
