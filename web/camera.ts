/**
 * The camera page (`/camera.html?game=ID#token=…`): picks a camera with getUserMedia (browsers allow it on
 * localhost or https), sends a frame a second to the server over the WebSocket, and a frame marked as the end of the
 * turn when the player presses the button or the space bar. In a Scrabble Me game each seat has its camera:
 * `&seat=N` (1-based) says which seat this one is at.
 */
import { connect } from './connection.ts';

const query = new URLSearchParams(location.search);
const game = query.get('game') ?? '';
/** The seat this camera is at, 0-based (Scrabble Me); a classic game has one camera at seat 0. */
const seat = Math.max(0, Math.floor(Number(query.get('seat') ?? '1')) - 1) || 0;
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
const video = document.getElementById('video') as HTMLVideoElement;
const select = document.getElementById('cameras') as HTMLSelectElement;
const status = document.getElementById('status')!;
const result = document.getElementById('result')!;
const canvas = document.createElement('canvas');

/** The game's version as last seen, sent with an End turn. */
let version: number | undefined;
const link = connect(
  game,
  (s) => {
    version = s.version;
    const totals = s.players.map((p) => `${p.name} ${p.score}`).join(' · ');
    if (s.variant === 'scrabble-me') {
      const board = s.players[seat]?.board ?? seat;
      const b = s.boards[board];
      result.textContent = b?.pending
        ? `Board ${board + 1} waits for the scorekeeper: ${b.pending.reasons.join('; ')}`
        : `Board ${board + 1}${b?.ended ? ': turn ended' : ''} · ${totals}`;
      return;
    }
    result.textContent = s.pending ? `Waiting for the scorekeeper: ${s.pending.reasons.join('; ')}` : totals;
  },
  (state) => {
    status.textContent = state;
    status.className = state;
  },
  (m) => {
    if (m.type === 'error') result.textContent = m.data.message;
    // In a game with a camera per seat, only this seat's frames show where this camera's grid is.
    if (m.type === 'thumbnail' && (m.data.camera ?? 0) === seat)
      drawGrid(m.data.corners, m.data.width, m.data.height);
  },
  token,
);

/** The 16 + 16 grid lines the server found, drawn over the live picture (corners in the frame's pixels). */
function drawGrid(corners: readonly (readonly [number, number])[] | null, width: number, height: number) {
  const grid = document.getElementById('grid') as HTMLCanvasElement;
  grid.width = video.clientWidth;
  grid.height = video.clientHeight;
  const g = grid.getContext('2d')!;
  g.clearRect(0, 0, grid.width, grid.height);
  if (!corners || !width || !height) return;
  const sx = grid.width / width;
  const sy = grid.height / height;
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
    return [x * sx, y * sy] as const;
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

async function start(deviceId?: string) {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: deviceId
      ? { deviceId: { exact: deviceId } }
      : { facingMode: 'environment', width: { ideal: 1280 } },
  });
  video.srcObject = stream;
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
  select.replaceChildren(
    ...devices.map(
      (d, i) => new Option(d.label || `camera ${i + 1}`, d.deviceId, false, d.deviceId === deviceId),
    ),
  );
}

function sendFrame(endTurn: boolean) {
  if (!video.videoWidth) return;
  const scale = Math.min(1, 1280 / Math.max(video.videoWidth, video.videoHeight));
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
  const jpeg = canvas.toDataURL('image/jpeg', 0.85).split(',')[1]!;
  // An End turn says which version of the game it ends, so a doubled press records one turn.
  const turn = endTurn ? { endTurn: true, ...(version === undefined ? {} : { version }) } : {};
  link.send({ type: 'frame', data: { token, jpeg, camera: seat, ...turn } });
}

select.onchange = () => void start(select.value);
document.getElementById('end-turn')!.onclick = () => sendFrame(true);
document.addEventListener('keydown', (e) => {
  if (e.code === 'Space') {
    e.preventDefault();
    sendFrame(true);
  }
});
setInterval(() => sendFrame(false), 1000);
start().catch((err) => {
  result.textContent = `No camera: ${err.message}. Browsers allow cameras on http://localhost or over https.`;
});
