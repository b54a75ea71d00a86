/* The sample views' tool types, for the views guide's blocks (they import `./tool-types.mjs` as the views do). */
export type { ToolMap, ToolName } from '../../../sample-app/views/app/tool-types.mjs';
