"""Files made in the kernel handed to the reader's browser as downloads (nothing is written on the server).

A :class:`Download` is a small anywidget: :meth:`Download.offer` sends a file's text (a scenario JSON, the HTML
report) with its name; the browser turns it into a ``blob:`` URL, starts the download at once and keeps a link
("Download NAME") for another copy, or for a browser that asks before it saves a file a page started.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["Download"]

_ESM = """
function render({ model, el }) {
  const link = document.createElement("a");
  link.className = "praetor-download";
  link.style.marginLeft = "0.5em";
  let url = null;
  const refresh = () => {
    if (url) { URL.revokeObjectURL(url); url = null; }
    const text = model.get("content");
    const name = model.get("filename");
    if (!text || !name) { link.textContent = ""; link.removeAttribute("href"); return; }
    url = URL.createObjectURL(new Blob([text], { type: model.get("mime") }));
    link.href = url;
    link.download = name;
    link.textContent = `Download ${name} again (${(text.length / 1024).toFixed(0)} kB)`;
  };
  refresh();
  model.on("change:nonce", () => { refresh(); if (url) { link.click(); } });
  el.appendChild(link);
  return () => { if (url) { URL.revokeObjectURL(url); } };
}
export default { render };
"""


class Download(anywidget.AnyWidget):
    """A download link filled from the kernel; :meth:`offer` starts the download in the browser.

    Attributes:
        filename: The name the browser saves the file under.
        mime: Its media type.
        content: Its text.
        nonce: Counts the offers (a change starts a download).
    """

    _esm = _ESM
    filename = traitlets.Unicode("").tag(sync=True)
    mime = traitlets.Unicode("text/plain").tag(sync=True)
    content = traitlets.Unicode("").tag(sync=True)
    nonce = traitlets.Int(0).tag(sync=True)

    def offer(self, content: str, filename: str, mime: str = "text/plain") -> None:
        """Send ``content`` to the browser as the file ``filename`` and start its download there."""
        with self.hold_sync():
            self.content = content
            self.filename = filename
            self.mime = mime
            self.nonce += 1
