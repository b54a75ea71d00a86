// Registers the harness behind `app.callTool`.
import './harness';

export { connectTestClient } from './test-client';
export type { TestClient, TestClientOptions } from './test-client';
