import { RxkubeError } from '../errors.js';

/**
 * A label selector string could not be parsed, or one of its keys or values is not a valid label
 * key or value. Nothing was selected: rxkube never guesses what a malformed selector meant.
 *
 * @example
 * ```ts
 * try {
 *   parseLabelSelector('app in (web');
 * } catch (e) {
 *   if (e instanceof LabelSelectorParseError) console.log(e.selector, e.position, e.message);
 * }
 * ```
 */
export class LabelSelectorParseError extends RxkubeError {
  /** The selector string as given. */
  readonly selector: string;
  /** The character offset in `selector` where parsing failed. */
  readonly position: number;
  /** What was wrong, without the selector and position. */
  readonly reason: string;

  constructor(selector: string, position: number, reason: string) {
    super(
      'LabelSelectorParseError',
      `couldn't parse label selector ${JSON.stringify(selector)} at ${position}: ${reason}`,
    );
    this.selector = selector;
    this.position = position;
    this.reason = reason;
  }
}
