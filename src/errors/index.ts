export { ErrorCode, FusionError } from './fusion-error';
export type { ErrorCodeValue } from './fusion-error';
export {
  AppClosedError,
  CancelledError,
  ConfigurationError,
  InvalidInputError,
  InvalidProgressError,
  NextCalledTwiceError,
  ServerBusyError,
  TimeoutError,
  UnknownToolError
} from './errors';
export type { Violation } from './errors';
