// Hex geometry for the .m44 doubled-width (row, col) addressing, pointy-top hexes.
// Row 0 is the top edge of the board (player 1's baseline). Even rows use even
// columns, odd rows odd columns. A hex centre is x = col * W/2, y = row * 0.75 H.
export const W = 60;                       // hex width (flat side to flat side)
export const H = W * 2 / Math.sqrt(3);     // hex height (point to point)
export const MARGIN = 14;

export const BOARD_SIZES = {
  STANDARD: { rows: 9, maxCol: 24 },
  OVERLORD: { rows: 9, maxCol: 50 },
  BRKTHRU: { rows: 17, maxCol: 24 },
};

export function key(hex) { return `${hex[0]},${hex[1]}`; }
export function sameHex(a, b) { return !!a && !!b && a[0] === b[0] && a[1] === b[1]; }

export class Geometry {
  constructor(rows, maxCol, flipped = false) {
    this.rows = rows;
    this.maxCol = maxCol;
    this.flipped = flipped;
    this.width = (maxCol + 2) * W / 2 + 2 * MARGIN;
    this.height = (rows - 1) * 0.75 * H + H + 2 * MARGIN;
  }
  // Displayed (row, col): when flipped the board is turned 180 degrees so that the
  // top player sees his own baseline at the bottom.
  disp(hex) {
    const [r, c] = hex;
    return this.flipped ? [this.rows - 1 - r, this.maxCol - c] : [r, c];
  }
  center(hex) {
    const [r, c] = this.disp(hex);
    return [MARGIN + W / 2 + c * W / 2, MARGIN + H / 2 + r * 0.75 * H];
  }
  // x of the vertical line through column `col` (section dividers).
  colX(col) {
    const c = this.flipped ? this.maxCol - col : col;
    return MARGIN + W / 2 + c * W / 2;
  }
  // Orientation angles are in screen degrees (0 = east, 90 = south); turning the board
  // adds 180 degrees.
  rot(deg) { return this.flipped ? deg + 180 : deg; }
  allHexes() {
    const out = [];
    for (let r = 0; r < this.rows; r++) {
      for (let c = r % 2; c <= this.maxCol; c += 2) out.push([r, c]);
    }
    return out;
  }
}

export function polygonPoints(cx, cy, scale = 1) {
  const w = (W / 2) * scale, h = (H / 2) * scale;
  const pts = [[0, -h], [w, -h / 2], [w, h / 2], [0, h], [-w, h / 2], [-w, -h / 2]];
  return pts.map(([x, y]) => `${(cx + x).toFixed(2)},${(cy + y).toFixed(2)}`).join(' ');
}

// Midpoint of the hex edge in direction `deg` (0 = E, 60 = SE, 120 = SW, ...).
export function edgePoint(cx, cy, deg, frac = 1) {
  const a = deg * Math.PI / 180;
  return [cx + Math.cos(a) * (W / 2) * frac, cy + Math.sin(a) * (W / 2) * frac];
}

export function hexDistance(a, b) {
  const dr = Math.abs(a[0] - b[0]), dc = Math.abs(a[1] - b[1]);
  return dr + Math.max(0, (dc - dr) / 2);
}
