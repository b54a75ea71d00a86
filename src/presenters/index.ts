export { cappedList } from './capped-list.presenter';
export type { CappedListOptions } from './capped-list.presenter';
export { isCallToolResult } from './presenter';
export type { PresentationContext, Presenter, PresenterRef } from '../types/presenter';
