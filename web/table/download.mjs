// download.mjs -- a file the browser saves, made on the device (a record
// exported from the lobby, or the record link of a table on this device,
// which has no server to ask: a static host has no /t/<table>/record).

import {h} from "./dom.mjs";

/**
 * Saves value as JSON in a file named name.
 * @param {unknown} value @param {string} name
 */
export function downloadJson(value, name) {
    const blob = new Blob([JSON.stringify(value) + "\n"], {type: "application/json"});
    const a = h("a", {href: URL.createObjectURL(blob), download: name});
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
