/** The camera streams pulled for a game, as its scorekeeper and its viewers see them. */
import type { SourceView } from '../../protocol/index.ts';

/** What every viewer is told of a stream that stopped: its reason (`ENOTFOUND`, `ECONNREFUSED`, a content type)
 *  would tell anyone watching what answers where on the server's network. */
export const STREAM_STOPPED = 'the camera stream stopped';

/** The camera streams pulled for a game, by seat: pulling, or stopped with its reason (the scorekeeper's only). */
export class SourceBoard {
  private readonly seats = new Map<number, SourceView>();

  constructor(private readonly changed: () => void) {}

  set(view: SourceView): void {
    const was = this.seats.get(view.camera);
    if (was && was.host === view.host && was.state === view.state && was.error === view.error) return;
    this.seats.set(view.camera, view);
    this.changed();
  }

  delete(camera: number): void {
    if (this.seats.delete(camera)) this.changed();
  }

  /** Whether seat `camera`'s stream is listed as being pulled (here or, in a hall, by another server). */
  streamed(camera: number): boolean {
    return this.seats.get(camera)?.state === 'pulling';
  }

  /** The streams as every viewer sees them (the snapshot): why one stopped is not said. */
  view(): SourceView[] {
    return this.detail().map((v) => (v.error === null ? v : { ...v, error: STREAM_STOPPED }));
  }

  /** The streams with why each stopped, for the scorekeeper (`GET …/source` with the token). */
  detail(): SourceView[] {
    return [...this.seats.values()].sort((a, b) => a.camera - b.camera);
  }
}
