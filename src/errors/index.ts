export { ErrorCode, FusionError } from './fusion-error';
export type { ErrorCodeValue } from './fusion-error';
export {
  AppClosedError,
  CalledToolNotFoundError,
  ConfigurationError,
  ElicitationUnsupportedError,
  InputDeclinedError,
  InsufficientScopeError,
  InputRoundsExceededError,
  MaskedError,
  InvalidRequestStateError,
  MissingCapabilityError,
  NotInteractiveError,
  OutputMismatchError,
  PresentationError,
  InvalidInputError,
  InvalidProgressError,
  LockKeyError,
  NextCalledTwiceError,
  ServerBusyError,
  TimeoutError,
  ToolError,
  UnknownToolError
} from './errors';
export type { Violation } from './errors';
export { CancelledError } from './cancelled-error';
export { UpstreamError } from './upstream-error';
export {
  InvalidParamsError,
  NothingToCompleteError,
  TaskLimitError,
  TaskInterruptedError,
  TaskNotFoundError,
  UnknownPromptError,
  UnknownResourceError
} from './request-errors';
