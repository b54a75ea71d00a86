// Interleaved A/B of one hop: N sequential echo calls and 40 work{10} calls per round to each target, the order rotated
// every round; p50s, and the CPU per call of each target's own process (from /proc) with the upstream's beside it.
// usage: node ab.mjs ERA(2025|2026) ROUNDS PER UPSTREAM_PID name=url=pid=toolPrefix ...   (the first target is the base)
// INFLIGHT=32: the echo calls go 32 at a time on the one client (as the peer bench's concurrency phase), and calls/s is printed.
const inflight = Number(process.env.INFLIGHT ?? 1);
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
const [era, rounds, per, upid, ...specs] = process.argv.slice(2);
const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
async function connect(url) {
  const c = new Client({ name: 'ab', version: '1' }, era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined);
  await c.connect(new StreamableHTTPClientTransport(new URL(url)));
  return c;
}
const T = [];
for (const s of specs) {
  const [name, url, pid, prefix] = s.split('=');
  T.push({ name, pid, prefix: prefix ?? '', c: await connect(url), lat: [], wl: [], cpu: 0, ucpu: 0, n: 0, ms: 0 });
}
let seq = 0;
const echo = async (t) => {
  const text = `hi ${++seq}`;
  const s = performance.now();
  const r = await t.c.callTool({ name: t.prefix + 'echo', arguments: { text } });
  const dt = performance.now() - s;
  if (r.content?.[0]?.text !== text) throw new Error(JSON.stringify(r));
  return dt;
};
const work = async (t) => {
  let p = 0;
  const s = performance.now();
  const r = await t.c.callTool({ name: t.prefix + 'work', arguments: { steps: 10 } }, { onprogress: () => p++ });
  const dt = performance.now() - s;
  if (p !== 10 || r.content?.[0]?.text !== 'done') throw new Error(`progress ${p}`);
  return dt;
};
for (const t of T) {
  for (let i = 0; i < 300; i++) await echo(t);
  for (let i = 0; i < 50; i++) await work(t);
}
for (let r = 0; r < Number(rounds); r++) {
  const order = T.map((_, i) => T[(i + r) % T.length]);
  for (const t of order) {
    const u0 = cpu(upid),
      g0 = cpu(t.pid);
    const s0 = performance.now();
    let left = Number(per);
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (left-- > 0) t.lat.push(await echo(t));
      })
    );
    t.ms += performance.now() - s0;
    t.cpu += cpu(t.pid) - g0;
    t.ucpu += cpu(upid) - u0;
    t.n += Number(per);
  }
  for (const t of order) for (let i = 0; i < 40; i++) t.wl.push(await work(t));
}
const p50 = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
};
const base = T[0];
console.log(`era ${era}, ${rounds} rounds x ${per} echo (${inflight} in flight) + 40 work{10}, interleaved`);
for (const t of T) {
  const own = t === base ? t.ucpu : t.cpu;
  console.log(
    `${t.name.padEnd(8)} echo p50 ${p50(t.lat).toFixed(3)} ms (${(p50(t.lat) / p50(base.lat)).toFixed(2)}x)  work p50 ${p50(t.wl).toFixed(3)} ms (${(p50(t.wl) / p50(base.wl)).toFixed(2)}x)  cpu/call own ${((own / t.n) * 1e6).toFixed(0)} us (${(own / t.n / (base.ucpu / base.n)).toFixed(2)}x) upstream ${((t.ucpu / t.n) * 1e6).toFixed(0)} us  ${((t.n / t.ms) * 1000).toFixed(0)} calls/s`
  );
}
for (const t of T) await t.c.close();
