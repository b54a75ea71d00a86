import type { RequestFacts } from '../types/core';
import { declaresTasks } from './task-record';

/**
 * Whether a request accepts a task: a 2026-07-28 request whose client capabilities declare the
 * tasks extension. The one answer to that question: the tasks extension's call-life point (may
 * this call become a task?), the `tasks/*` endpoints and task listen streams (-32021 otherwise) ask it.
 */
export function acceptsTasks(request: Pick<RequestFacts, 'era' | 'clientCapabilities'>): boolean {
  return request.era !== 'legacy' && declaresTasks(request.clientCapabilities);
}
