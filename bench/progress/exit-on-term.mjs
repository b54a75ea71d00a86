// Preloaded into the servers by ab.mjs with --prof: the baseline has no SIGTERM handler of its own, and a process a
// signal ends writes no --cpu-prof profile; this one exits on SIGTERM, so it does (the project's own handler closes it
// first where it has one).
process.once('SIGTERM', () => setImmediate(() => process.exit(0)));
