/**
 * The browser's side of the wire protocol: connects to /ws?game=ID, keeps the latest snapshot, notices a gap in
 * `seq` or a silence longer than three heartbeats, and reconnects (a new connection starts with a full snapshot).
 */
import type { ClientMessage, ServerMessage, Snapshot } from '../server/protocol/index.ts';

export type ConnectionState = 'connecting' | 'live' | 'stale';

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
    ws.onopen = () => {
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
    ws.onclose = () => {
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
