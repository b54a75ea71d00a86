export { connectTestClient } from './test-client';
export type { TestClient, TestClientOptions } from './test-client';
/** What `app.callTool`'s `onInput` is handed for each request of a round, and what it answers (also the test client's). */
export type { HarnessInputAnswer, HarnessInputRequest } from '../types/harness';
