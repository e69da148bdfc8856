// The start of every script of the app's own components (app_pages/shared/components.py).

// The text a component was given: the UTF-8 bytes of its JSON (components.data).
function textOf(data) {
  if (!data) return "{}";
  if (typeof data === "string") return data;
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data;
  return bytes instanceof Uint8Array ? new TextDecoder().decode(bytes) : JSON.stringify(data);
}

// What a component was given, read; an empty object for anything that is not JSON.
function read(data) {
  try {
    return JSON.parse(textOf(data));
  } catch (e) {
    return {};
  }
}
