export { connectTestClient } from './test-client';
export type { TestClient, TestClientOptions } from './test-client';
