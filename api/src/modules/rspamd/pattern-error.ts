/** A value refused by the pattern rules; its message is shown to the user under the field. */
export class PatternError extends Error {}
