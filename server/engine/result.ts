/** Expected failures are values: every fallible engine verb returns one of these instead of throwing. */
export type Result<T, E = Failure> = ({ ok: true } & T) | ({ ok: false } & E);

/** A failure with a stable machine code, a sentence for people, and the squares it concerns (0-based). */
export interface Failure<Code extends string = string> {
  readonly reason: Code;
  readonly message: string;
  readonly squares?: readonly Square[];
}

/** A square on the board, 0-based. Row 0 is row 1 of the board; column 0 is column A. */
export interface Square {
  readonly row: number;
  readonly col: number;
}
