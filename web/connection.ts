/**
 * The browser's side of the wire protocol: connects to /ws?game=ID, keeps the latest snapshot, notices a gap in
 * `seq` or a silence longer than three heartbeats, and reconnects (a new connection starts with a full snapshot).
 * A connection refused before it opened asks the HTTP API whether the game exists: a missing game (a mistyped or
 * old link) is said once (`missing`) and never retried.
 */
import type { ClientMessage, ServerMessage, Snapshot } from '../server/protocol/index.ts';
import { getGame } from './api.ts';

/** `missing`: the server has no such game (its API answers 404); the connection is not tried again. */
export type ConnectionState = 'connecting' | 'live' | 'stale' | 'missing';

/** Whether the server says there is no game `game` (404); false when it has it, or could not be asked. */
async function gameMissing(game: string): Promise<boolean> {
  return (await getGame(game)).status === 404;
}

export function connect(
  game: string,
  onSnapshot: (s: Snapshot) => void,
  onState: (s: ConnectionState) => void,
  onMessage: (m: ServerMessage) => void = () => {},
  /** The scorekeeper's token: the connection also gets the camera pictures. */
  token?: string | null,
  /** With the token, whether the pictures themselves are shown, or only where the grid was found in each frame (a
   *  page with a live view of its own: no picture is made for it). */
  pictures = true,
): { send(data: ClientMessage): boolean; readonly open: boolean; close(): void } {
  let ws: WebSocket | undefined;
  let seq = 0;
  let lastHeard = 0;
  /** Closed by the page (the hall drops a game that left the event's live games): no reconnecting. */
  let closed = false;
  const open = () => {
    if (closed) return;
    onState('connecting');
    seq = 0;
    ws = new WebSocket(
      `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?game=${encodeURIComponent(game)}`,
    );
    let opened = false;
    ws.onopen = () => {
      opened = true;
      if (token)
        ws?.send(JSON.stringify({ type: 'camera-view', data: { token, ...(pictures ? {} : { pictures }) } }));
    };
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as ServerMessage;
      lastHeard = Date.now();
      if (seq !== 0 && m.seq !== seq + 1) ws?.send(JSON.stringify({ type: 'resync' }));
      seq = m.seq;
      onState('live');
      if (m.type === 'snapshot') onSnapshot(m.data);
      onMessage(m);
    };
    ws.onclose = async () => {
      if (closed) return;
      // Refused before it opened: the WebSocket cannot tell why (the server answers a missing game with a 404).
      if (!opened && (await gameMissing(game))) {
        closed = true;
        clearInterval(watch);
        return onState('missing');
      }
      if (closed) return;
      onState('stale');
      setTimeout(open, 1000);
    };
  };
  open();
  const watch = setInterval(() => {
    if (lastHeard && Date.now() - lastHeard > 15000) onState('stale');
  }, 2000);
  return {
    /** Sends `data` if the connection is open; false (nothing sent) while it is not. */
    send: (data) => {
      if (ws?.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(data));
      return true;
    },
    /** Whether the connection is open now (what is sent goes out). */
    get open() {
      return ws?.readyState === WebSocket.OPEN;
    },
    close: () => {
      closed = true;
      clearInterval(watch);
      ws?.close();
    },
  };
}
