export type { CallRequest, LogSend, ProgressSend } from '../types/request';
