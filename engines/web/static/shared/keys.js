// Keyboard shortcuts: a map from key to action, ignored while the user types into a field.
export function bindKeys(target, keymap) {
  target.addEventListener("keydown", (event) => {
    // Keys typed into a text or number field (or a select) are the field's own.
    const tag = event.target.tagName;
    const typing = tag === "INPUT" && !["range", "checkbox", "file"].includes(event.target.type);
    if (typing || tag === "SELECT" || tag === "TEXTAREA" || event.ctrlKey || event.metaKey || event.altKey) return;
    const action = keymap[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });
}
