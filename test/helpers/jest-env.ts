// Tests sign continuation state with a fixed key unless they set their own (or test the default):
// without one every app would warn that it uses a random per-process key.
process.env.FUSION_STATE_KEY ??= 'mcpfusion-test-suite-state-key-of-32-bytes';
