// pegpi phone pages: what every page script shares (finding and making elements, talking to the
// device, the toast). An ES module: the page scripts import what they use.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function csrf() { return document.querySelector("meta[name=csrf-token]").content; }

// the device's JSON answer; a refusal throws an Error with the device's words and the HTTP status
export async function request(method, url, body) {
  const init = { method, headers: { "X-CSRF-Token": csrf() }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new Error("The device cannot be reached. Check the Wi-Fi.");
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error || `The device said no (${response.status}).`);
    error.status = response.status;
    throw error;
  }
  return data;
}

// a message in the page's #toast for a while: good news (ok) briefly, a problem longer
export function toast(message, ok = false, ms = ok ? 1500 : 6000) {
  const box = $("toast");
  box.textContent = message;
  box.classList.toggle("ok", ok);
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, ms);
}
