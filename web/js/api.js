// Calls to the tanbo serve API. Every answer that is not 2xx becomes an ApiError whose
// message is the server's {"error": reason} (or the HTTP status when the body has none).

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const reason = body && typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
    throw new ApiError(response.status, reason);
  }
  return body;
}

export async function getJSON(path) {
  return answer(await fetch(path, { headers: { Accept: 'application/json' } }));
}

export async function postJSON(path, data) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(data),
  });
  return answer(response);
}

export function gamePath(id) {
  return `/api/games/${encodeURIComponent(id)}`;
}

// "black" -> "Black"
export function colourTitle(colour) {
  return colour ? colour.charAt(0).toUpperCase() + colour.slice(1) : '';
}

// "Black (ann)", or "Black" for a player without a name (or named by its colour).
export function playerLabel(player) {
  const title = colourTitle(player.color);
  const named = player.name && player.name.toLowerCase() !== String(player.color).toLowerCase();
  return named ? `${title} (${player.name})` : title;
}

// The seats this browser created (from POST /api/games), kept so the game page can show the
// invitation links: localStorage key tanbo.seats.ID.
export function saveSeats(id, seats) {
  try {
    localStorage.setItem(`tanbo.seats.${id}`, JSON.stringify(seats));
  } catch {
    // storage may be off; the links were shown once anyway
  }
}

export function loadSeats(id) {
  try {
    const seats = JSON.parse(localStorage.getItem(`tanbo.seats.${id}`) || '[]');
    return Array.isArray(seats) ? seats : [];
  } catch {
    return [];
  }
}

// Creates an element with text content (never HTML) and optional attributes.
export function el(tag, text = '', attrs = {}) {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// Copies text to the clipboard; falls back to selecting an input's text.
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.select();
      return document.execCommand && document.execCommand('copy');
    }
    return false;
  }
}
