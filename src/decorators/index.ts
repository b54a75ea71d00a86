export { Action, Interactive, Mutation } from './tool-kind.decorators';
export { Ctx, Input, Signal } from './param.decorators';
export { ToolProvider } from './tool-provider.decorator';
export { Prompt, Resource, ResourceTemplate } from './resource.decorators';
