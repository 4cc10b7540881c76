/**
 * The camera page (`/camera.html?game=ID#token=…`): picks a camera with getUserMedia (browsers allow it on
 * localhost or over https), looks at it every second and sends the frame to the server over the WebSocket when the
 * picture changed, in the few seconds after a change, and every 5 s besides (frame-gate.ts), and a frame marked as
 * the end of the turn when the player presses the button or the space bar. A status bar says what the camera and
 * the game say (board found, squares in doubt, whose turn, the last move); End turn stays in view. Without a camera
 * the page says why, for as long as it is so, and takes photos instead (each one ends the turn). In a Scrabble Me
 * game each seat has its camera: `&seat=N` (1-based) says which seat this one is at. `&rack=N` (a classic game) makes
 * it player N's rack camera: a phone at their place, looking across the board with their rack in front of it, whose
 * frames are looked at for that rack only (never read as the board, no End turn).
 *
 * Size: one page's camera, photo fallback and status bar; the frame gate is ui/frame-gate.ts.
 */
import type { GameSnapshot, MeSnapshot, Snapshot } from '../../server/protocol/index.ts';
import { connect } from '../connection.ts';
import { FrameGate, GLANCE_HEIGHT, GLANCE_WIDTH, greyOf } from '../ui/frame-gate.ts';
import { meStatus } from '../ui/me.ts';
import { noSuchGameView } from '../ui/render.ts';

const query = new URLSearchParams(location.search);
const game = query.get('game') ?? '';
/** The seat this camera is at, 0-based (Scrabble Me); a classic game has one camera at seat 0. */
const seat = Math.max(0, Math.floor(Number(query.get('seat') ?? '1')) - 1) || 0;
/** The player whose rack camera this is, 0-based (`&rack=N`, 1-based); undefined for a board camera. */
const rackOf = /^[1-4]$/.test(query.get('rack') ?? '') ? Number(query.get('rack')) - 1 : undefined;
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const video = byId<HTMLVideoElement>('video');
const select = byId<HTMLSelectElement>('cameras');
const status = byId('status');
const result = byId('result');
const endTurn = byId<HTMLButtonElement>('end-turn');
const photo = byId<HTMLInputElement>('photo');
const canvas = document.createElement('canvas');
/** The small grey picture each frame is glanced at through, and what decides whether it is sent. */
const glance = Object.assign(document.createElement('canvas'), {
  width: GLANCE_WIDTH,
  height: GLANCE_HEIGHT,
});
const glanceContext = glance.getContext('2d', { willReadFrequently: true })!;
/**
 * The longest side of a frame sent, in pixels, and the width asked of the camera. Seen from a player's seat the far
 * rows are a few pixels tall: a recorded game rendered at 68° held 4 of 22 moves for a click from its frames made
 * 1280×960, and 1 from the same frames at 1920×1440 (at 55°, none either way); read cold at 640×480, the committed
 * 55° game had 280 squares wrong where 1280×960 had 1 (docs/measurements.md, "Frames the size the camera gives"). A
 * 1920-px JPEG is 250–600 kB, sent when the picture changes and every 5 s. The server reads frames up to 2000 px a
 * side as they are (vision/decode.ts).
 */
const FRAME_SIDE = 1920;
const gate = new FrameGate();

/** The game's version as last seen, sent with an End turn. */
let version: number | undefined;
/** Whether a camera is streaming into the page; without one, End turn takes a photo. */
let cameraOn = false;
/**
 * What the line above End turn says now: the game's news; a press sent (until the game moves on); or an error (a
 * while, so that it is read).
 */
let message: { kind: 'news' | 'sent' | 'error'; until: number } = { kind: 'news', until: 0 };

function say(text: string, kind: 'news' | 'sent' | 'error'): void {
  result.textContent = text;
  message = { kind, until: kind === 'news' ? 0 : Date.now() + (kind === 'sent' ? 15_000 : 8000) };
}

/** One item of the status bar: its text, and its state (`ok`, `warn`, `waiting`) for its colour. */
function setItem(id: string, text: string, state?: 'ok' | 'warn' | 'waiting'): void {
  const item = byId(id);
  item.querySelector('.cam-v')!.textContent = text;
  if (state) item.dataset.state = state;
  else delete item.dataset.state;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The last move in a few words: `WINDY 8D 32 · Ann`, `Ben passed`. */
function lastMoveText(s: GameSnapshot): string {
  const t = [...s.turns]
    .reverse()
    .find((turn) =>
      ['play', 'pass', 'exchange', 'withdraw', 'lost-turn', 'challenge-bonus'].includes(turn.kind),
    );
  if (!t) return 'none yet';
  const who = s.players[t.player]?.name ?? '?';
  if (t.kind === 'play' && t.words?.length)
    return `${t.words[0]!.word} ${t.position ?? ''} ${t.points} · ${who}`;
  const said: Record<string, string> = {
    pass: 'passed',
    exchange: 'exchanged',
    withdraw: 'play withdrawn',
    'lost-turn': 'lost the turn',
    'challenge-bonus': `+${t.points} (challenge)`,
  };
  return `${who} ${said[t.kind] ?? t.kind}`;
}

/** The status bar's squares in doubt: those of the reading held for the scorekeeper, if one is. */
function showDoubt(held: { readonly squares: readonly unknown[] } | null | undefined): void {
  if (held)
    setItem(
      'cam-doubt',
      // Short: a phone's status bar has room for a few words (the line below says what waits).
      held.squares.length > 0 ? `${plural(held.squares.length, 'square')}, held` : 'held',
      'warn',
    );
  else setItem('cam-doubt', 'none', 'ok');
}

/** What the game says, and the photo of the reading held for the scorekeeper (null when none is). */
type News = { text: string; held: string | null };

function showClassic(s: GameSnapshot): News {
  if (rackOf !== undefined) return showRack(s, rackOf);
  const held = s.pending;
  showDoubt(held);
  setItem('cam-turn', s.ended ? 'game over' : (s.players[s.toMove]?.name ?? '?'));
  setItem('cam-last', lastMoveText(s));
  const totals = s.players.map((p) => `${p.name} ${p.score}`).join(' · ');
  return {
    text: held ? `Held for the scorekeeper: ${held.reasons.join('; ')}` : totals,
    held: held?.photo ?? null,
  };
}

/** A rack camera's page: whose rack it watches, and when it is looked at (the racks are the scorekeeper's). */
function showRack(s: GameSnapshot, player: number): News {
  const name = s.players[player]?.name;
  byId('seat-name').textContent = name ? `${name}'s rack camera` : 'rack camera: no such player';
  setItem('cam-turn', s.ended ? 'game over' : (s.players[s.toMove]?.name ?? '?'));
  setItem('cam-last', lastMoveText(s));
  return {
    text: name
      ? `Keep ${name}'s rack and the board in view: the rack is read before each of ${name}'s turns, for the scorekeeper only.`
      : `This game has ${s.players.length} players: open a rack camera link from the scorekeeper's Share panel.`,
    held: null,
  };
}

function showMe(s: MeSnapshot): News {
  const me = s.players[seat];
  const index = me?.board ?? seat;
  const b = s.boards[index];
  byId('seat-name').textContent = me ? `${me.name}'s camera · board ${index + 1}` : 'camera';
  const held = b?.pending;
  showDoubt(held);
  const building = s.phase === 'build' || s.phase === 'bonus';
  setItem(
    'cam-turn',
    building
      ? b?.ended
        ? 'turn ended: waiting for the others'
        : `${me?.name ?? 'you'}: build a word`
      : meStatus(s),
  );
  const word = s.rounds.at(-1)?.words.find((w) => w.player === seat);
  setItem('cam-last', word ? `${word.word} ${word.withdrawn ? 0 : word.score}` : 'none yet');
  const totals = s.players.map((p) => `${p.name} ${p.score}`).join(' · ');
  return {
    text: held ? `Board ${index + 1} is held for the scorekeeper: ${held.reasons.join('; ')}` : totals,
    held: held?.photo ?? null,
  };
}

/** The photo of the reading held when the last snapshot came. A new one is news for a photo just sent: this
 *  camera's, or (in a classic game with another camera) the other's, which holds this one's turn as well. */
let heldPhoto: string | null = null;

function showSnapshot(s: Snapshot): void {
  const moved = s.version !== version;
  version = s.version;
  const news = s.variant === 'scrabble-me' ? showMe(s) : showClassic(s);
  const newlyHeld = news.held !== null && news.held !== heldPhoto;
  heldPhoto = news.held;
  // A press is answered by the game moving on, or by its reading held for the scorekeeper (or by neither, a while
  // later); an error stays a while.
  if (
    message.kind === 'news' ||
    (message.kind === 'sent' && (moved || newlyHeld)) ||
    Date.now() >= message.until
  )
    say(news.text, 'news');
}

/** The 16 + 16 grid lines the server found, drawn over the live picture (corners in the frame's pixels). */
function drawGrid(corners: readonly (readonly [number, number])[] | null, width: number, height: number) {
  const grid = byId<HTMLCanvasElement>('grid');
  grid.width = video.clientWidth;
  grid.height = video.clientHeight;
  const g = grid.getContext('2d')!;
  g.clearRect(0, 0, grid.width, grid.height);
  if (!corners || !width || !height) return;
  // The picture is drawn whole in the video's box (object-fit: contain): the same scale both ways, centred.
  const scale = Math.min(grid.width / width, grid.height / height);
  const [ox, oy] = [(grid.width - width * scale) / 2, (grid.height - height * scale) / 2];
  // Bilinear interpolation between the corners is close enough to the perspective for a guide.
  const at = (u: number, v: number) => {
    const [a, b, c, d] = corners as [
      readonly [number, number],
      readonly [number, number],
      readonly [number, number],
      readonly [number, number],
    ];
    const x = (1 - v) * ((1 - u) * a[0] + u * b[0]) + v * ((1 - u) * d[0] + u * c[0]);
    const y = (1 - v) * ((1 - u) * a[1] + u * b[1]) + v * ((1 - u) * d[1] + u * c[1]);
    return [ox + x * scale, oy + y * scale] as const;
  };
  g.strokeStyle = 'rgba(0, 255, 255, 0.8)';
  g.lineWidth = 1;
  for (let k = 0; k <= 15; k++) {
    for (const [p, q] of [
      [at(k / 15, 0), at(k / 15, 1)],
      [at(0, k / 15), at(1, k / 15)],
    ] as const) {
      g.beginPath();
      g.moveTo(p[0], p[1]);
      g.lineTo(q[0], q[1]);
      g.stroke();
    }
  }
}

/**
 * Why there is no camera, in words a player can act on. Browsers give a page the camera only in a secure context:
 * over https, or on localhost; a phone that opened the laptop's address over plain http gets none at all.
 */
function cameraProblem(err?: unknown): { title: string; text: string } {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia)
    return {
      title: 'This page cannot use a camera at this address',
      text: `Browsers give a page the camera only over https or on localhost, and this page was opened at ${location.origin}. Open it over https, or at http://localhost:${location.port || '80'} on the computer the camera is attached to (a phone on the network: see the README, "A phone as the camera"). Or take a photo of the board below after each move: each photo ends the turn.`,
    };
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return {
      title: 'The camera was not allowed',
      text: 'The browser was told not to let this page use the camera. Allow the camera for this site (the camera icon in the address bar, or the site settings), then reload the page. Or take a photo of the board below after each move.',
    };
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return {
      title: 'No camera found',
      text: 'This device has no camera the browser can use. Connect one and reload the page, or take a photo of the board below after each move.',
    };
  if (name === 'NotReadableError' || name === 'AbortError')
    return {
      title: 'The camera could not be started',
      text: 'Another app (or another tab) may be using it. Close it and reload the page, or take a photo of the board below after each move.',
    };
  const detail = err instanceof Error ? `: ${err.message}` : '';
  return {
    title: 'The camera could not be started',
    text: `The browser said${detail || ' nothing more'}. Reload the page, or take a photo of the board below after each move.`,
  };
}

/** Whether the server has no such game: the page says so, and nothing else it says replaces that. */
let missing = false;

/** Shows why there is no camera, for as long as the page is open; End turn then takes a photo. */
function showProblem(problem: { title: string; text: string }, photos = true): void {
  if (missing) return;
  cameraOn = false;
  byId('no-camera-title').textContent = problem.title;
  // A rack camera's photo shows the rack, and ends no turn.
  byId('no-camera-text').textContent =
    rackOf === undefined
      ? problem.text
      : problem.text.replace(
          /([Oo]r) take a photo of the board below after each move(: each photo ends the turn)?\./,
          '$1 take a photo of the rack and the board below before each of your turns.',
        );
  byId('no-camera').hidden = false;
  byId('view').hidden = true;
  byId('cam-pick').hidden = true;
  byId('no-camera').querySelector('.cam-photo')!.toggleAttribute('hidden', !photos);
  endTurn.disabled = !photos;
  endTurn.firstChild!.textContent = photos ? 'Take a photo · End turn ' : 'End turn ';
  endTurn.hidden = rackOf !== undefined;
  setItem('cam-board', 'no camera', 'warn');
}

/** A link to a game the server does not have: the camera stops, and the page says so with the way back. */
function noSuchGame(): void {
  showProblem({ title: 'No such game', text: '' }, false);
  missing = true;
  status.textContent = 'no such game';
  status.className = 'missing';
  for (const track of (video.srcObject as MediaStream | null)?.getTracks() ?? []) track.stop();
  video.srcObject = null;
  const view = noSuchGameView(game);
  byId('no-camera-text').replaceChildren(...(view.querySelector('p')?.childNodes ?? []));
  setItem('cam-board', 'no game', 'warn');
}

async function start(deviceId?: string): Promise<void> {
  // The size asked of a camera picked from the list too: without it a browser gives 640×480.
  const stream = await navigator.mediaDevices.getUserMedia({
    video: deviceId
      ? { deviceId: { exact: deviceId }, width: { ideal: FRAME_SIDE } }
      : { facingMode: 'environment', width: { ideal: FRAME_SIDE } },
  });
  // The game turned out not to exist while the camera started: it is not used.
  if (missing) {
    for (const track of stream.getTracks()) track.stop();
    return;
  }
  video.srcObject = stream;
  cameraOn = true;
  // Another camera: its first frame is sent whatever the last one showed.
  gate.reset();
  byId('no-camera').hidden = true;
  byId('view').hidden = false;
  byId('cam-pick').hidden = false;
  endTurn.disabled = false;
  endTurn.firstChild!.textContent = 'End turn ';
  endTurn.hidden = rackOf !== undefined;
  setItem('cam-board', rackOf === undefined ? 'looking…' : 'sending to the server', 'waiting');
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
  select.replaceChildren(
    ...devices.map(
      (d, i) => new Option(d.label || `camera ${i + 1}`, d.deviceId, false, d.deviceId === deviceId),
    ),
  );
}

/** Sends a JPEG; false when the connection to the server is down (nothing sent). */
function sendJpeg(jpeg: string, end: boolean): boolean {
  // An End turn says which version of the game it ends, so a doubled press records one turn.
  if (rackOf !== undefined) return link.send({ type: 'frame', data: { token, jpeg, rack: rackOf } });
  const turn = end ? { endTurn: true, ...(version === undefined ? {} : { version }) } : {};
  return link.send({ type: 'frame', data: { token, jpeg, camera: seat, ...turn } });
}

/** Draws a picture at most FRAME_SIDE px a side and sends it as a JPEG; false when it could not be sent (no JPEG is
 *  made while the connection is down). */
function sendPicture(source: CanvasImageSource, width: number, height: number, end: boolean): boolean {
  if (!link.open) return false;
  const scale = Math.min(1, FRAME_SIDE / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  canvas.getContext('2d')!.drawImage(source, 0, 0, canvas.width, canvas.height);
  return sendJpeg(canvas.toDataURL('image/jpeg', 0.85).split(',')[1]!, end);
}

const NOT_SENT =
  'Not connected to the server: End turn was not sent. Press it again once the status says live.';

/** Sends the camera's frame: always with End turn, else when the gate says so (frame-gate.ts). */
function sendFrame(end: boolean): void {
  if (!video.videoWidth) return;
  // No connection: nothing to glance at or send (once connected again the gate sends the next frame, whatever it
  // shows: FrameGate.connection).
  if (!link.open) {
    if (end) say(NOT_SENT, 'error');
    return;
  }
  // Smoothed: each pixel of the glance close to the mean of the camera's pixels under it (less noise, and a tile's
  // change not missed between the samples). A browser that ignores the hint (Firefox) samples more coarsely: its
  // noise makes the gate send more often, never less.
  glanceContext.imageSmoothingQuality = 'high';
  glanceContext.drawImage(video, 0, 0, GLANCE_WIDTH, GLANCE_HEIGHT);
  const grey = greyOf(glanceContext.getImageData(0, 0, GLANCE_WIDTH, GLANCE_HEIGHT).data);
  if (!gate.next(grey, performance.now(), end)) return;
  const sent = sendPicture(video, video.videoWidth, video.videoHeight, end);
  // Not sent (the connection closed just now): the gate forgets it, so the next frame goes whatever it shows.
  if (!sent) gate.reset();
  if (end) say(sent ? 'End turn sent: the server reads the board…' : NOT_SENT, sent ? 'sent' : 'error');
}

function pressEndTurn(): void {
  // A rack camera ends no turn.
  if (rackOf !== undefined) return;
  if (cameraOn) sendFrame(true);
  else if (!endTurn.disabled) photo.click();
}

photo.onchange = async () => {
  const file = photo.files?.[0];
  photo.value = '';
  if (!file) return;
  try {
    const bitmap = await createImageBitmap(file);
    const sent = sendPicture(bitmap, bitmap.width, bitmap.height, rackOf === undefined);
    bitmap.close();
    if (sent && rackOf !== undefined) say('Photo sent: the server looks at the rack in it', 'sent');
    else if (sent) say('Photo sent: it ends the turn; the server reads the board…', 'sent');
    else say(NOT_SENT, 'error');
  } catch {
    say('That file is not a picture this browser can read: take the photo again.', 'error');
  }
};

const link = !game
  ? { send: () => false, open: false }
  : connect(
      game,
      showSnapshot,
      (state) => {
        if (state === 'missing') return noSuchGame();
        // Connected again, perhaps to another instance (the last one stopped) that has no frame of this camera yet:
        // the next one goes whatever it shows.
        gate.connection(state === 'live');
        status.textContent = state;
        status.className = state;
      },
      (m) => {
        if (m.type === 'error') {
          say(m.data.message, 'error');
          // The server cannot tell whether the End turn was recorded (an answer lost in a hall's fault): the game
          // as it is now is asked for, and shows what was.
          if (m.data.code === 'unknown') link.send({ type: 'resync' });
        }
        // In a game with a camera per seat, only this seat's frames show where this camera's grid is.
        if (m.type === 'thumbnail' && rackOf === undefined && (m.data.camera ?? 0) === seat) {
          drawGrid(m.data.corners, m.data.width, m.data.height);
          if (m.data.corners) setItem('cam-board', 'found', 'ok');
          else setItem('cam-board', 'not found: show the whole board', 'warn');
        }
      },
      // The page shows its own live view: only where the grid was found is asked for, not the picture. A rack
      // camera's key opens its rack frames only: it asks for nothing.
      rackOf === undefined ? token : undefined,
      false,
    );

// A rack camera's photo is looked at for the rack; it ends no turn.
if (rackOf !== undefined) {
  photo.parentElement!.firstChild!.textContent = 'Take a photo of the rack and the board instead ';
  endTurn.hidden = true;
}

select.onchange = () => void start(select.value).catch((err) => showProblem(cameraProblem(err)));
endTurn.onclick = pressEndTurn;
document.addEventListener('keydown', (e) => {
  // Space ends the turn, but not while a control has the focus (it presses or opens that control).
  const target = e.target as HTMLElement;
  if (e.code !== 'Space' || target.closest('button, input, select, textarea, a')) return;
  e.preventDefault();
  pressEndTurn();
});
setInterval(() => {
  if (cameraOn) sendFrame(false);
}, 1000);

if (!game || !token)
  showProblem(
    {
      title: !game ? 'No game given' : 'This link has no key',
      text: !game
        ? 'Open the camera link from the start page or the scorekeeper page of a game.'
        : "Open the camera link from the Share panel of the scorekeeper's page: it carries the key (after #token=) that lets this page send pictures.",
    },
    false,
  );
else if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) showProblem(cameraProblem());
else start().catch((err) => showProblem(cameraProblem(err)));
