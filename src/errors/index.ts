export { ErrorCode, FusionError } from './fusion-error';
export type { ErrorCodeValue } from './fusion-error';
export {
  AppClosedError,
  CancelledError,
  ConfigurationError,
  ElicitationUnsupportedError,
  InputRoundsExceededError,
  InvalidRequestStateError,
  MissingCapabilityError,
  NotInteractiveError,
  InvalidInputError,
  InvalidProgressError,
  NextCalledTwiceError,
  ServerBusyError,
  TimeoutError,
  UnknownToolError
} from './errors';
export type { Violation } from './errors';
