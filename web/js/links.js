// Links to copy: a game's spectator link, and the seats' invitation links when this browser
// started the game (saved from POST /api/games's answer).
import { copyText, el, loadSeats, playerLabel } from './api.js';

// One line: a label, the link in a read-only field, a copy button and an open link.
export function linkRow(label, path) {
  const url = new URL(path, location.origin).href;
  const row = el('div', '', { class: 'link-row' });
  const input = el('input', '', { type: 'text', readonly: '', value: url, 'aria-label': label });
  const copy = el('button', 'copy', { type: 'button' });
  copy.addEventListener('click', async () => {
    copy.textContent = (await copyText(url, input)) ? 'copied' : 'select and copy';
    setTimeout(() => (copy.textContent = 'copy'), 2000);
  });
  row.append(el('span', label, { class: 'link-label' }), input, copy, el('a', 'open', { href: url }));
  return row;
}

// seatLinks: [{color, name, kind, token, url}] as POST /api/games answers.
export function seatRows(seats) {
  return seats.filter((s) => s.kind === 'human').map((s) => linkRow(`${playerLabel(s)} plays at`, s.url));
}

export function showLinks(box, id, seat, learnColour) {
  box.replaceChildren(linkRow('watch', `/games/${encodeURIComponent(id)}`));
  const seats = loadSeats(id);
  const mine = seats.find((s) => s.token === seat);
  if (mine) learnColour(mine.color);
  box.append(...seatRows(seats));
}
