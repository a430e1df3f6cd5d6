// Vertex text <-> [x, y] for display only (GTP letters skip I; rows count from the bottom).
export const COLUMNS = "ABCDEFGHJKLMNOPQRST";

export function toVertex([x, y], size) {
  return `${COLUMNS[x]}${size - y}`;
}

export function fromVertex(text, size) {
  if (!text || text === "pass" || text === "resign") return null;
  const x = COLUMNS.indexOf(text[0].toUpperCase());
  return [x, size - Number(text.slice(1))];
}
