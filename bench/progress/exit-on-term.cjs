// Preloaded into the baseline server by ab.mjs with --prof: it has no SIGTERM handler of its own, and a process a signal
// ends writes no --cpu-prof profile; this one exits on SIGTERM, so it does.
process.once('SIGTERM', () => process.exit(0));
