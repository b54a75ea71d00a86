/** What the terminal client answers a question with (an elicitation's result). */
export type Reply = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };
