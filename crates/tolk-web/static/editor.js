// Tolk's editor: the keyboard. Everything here is also a button or a
// link on the page, which works without this script.
(function () {
  "use strict";
  var editor = document.getElementById("editor");
  var shortcuts = document.getElementById("shortcuts");
  // The key that was pressed with Ctrl before a digit (M: copy a
  // suggestion or a memory offer, numbered in the page's order; I:
  // dismiss a failing check).
  var pending = null;
  var typed = document.getElementById("typed-checks");
  var waiting = null;

  // The checks the text as typed fails, asked of the server (the rules
  // of a save) a moment after typing stops.
  function checkTyped() {
    var data = new FormData(editor);
    data.set("action", "checks");
    fetch(editor.getAttribute("action"), {
      method: "POST", body: new URLSearchParams(data), credentials: "same-origin"
    }).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (found) {
      if (!found) { return; }
      typed.textContent = found.failing.length
        ? "As typed, it fails: " + found.failing.join(", ")
        : "As typed, it passes the checks.";
    }).catch(function () { typed.textContent = ""; });
  }

  if (editor && typed) {
    editor.addEventListener("input", function () {
      window.clearTimeout(waiting);
      waiting = window.setTimeout(checkTyped, 300);
    });
  }

  function submit(action, fuzzy) {
    if (!editor) { return; }
    var button = editor.querySelector('button[name="action"][value="' + action + '"]');
    if (!button) { return; }
    var box = document.getElementById("id_fuzzy");
    if (box && fuzzy !== null) { box.checked = fuzzy; }
    editor.requestSubmit(button);
  }

  function follow(id) {
    var link = document.getElementById(id);
    if (link) { window.location.assign(link.href); }
  }

  function copySuggestion(n) {
    var item = document.querySelector('[data-copy="' + n + '"]');
    if (!item || !editor) { return; }
    item.querySelectorAll("[data-form]").forEach(function (form) {
      var field = document.getElementById("id_target_" + form.getAttribute("data-form"));
      if (field) { field.value = form.textContent; }
    });
    var first = document.getElementById("id_target_0");
    if (first) { first.focus(); }
  }

  function dismiss(n) {
    var button = document.querySelector('[data-dismiss="' + n + '"]');
    if (button) { button.form.requestSubmit(button); }
  }

  function typing(target) {
    return target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT");
  }

  document.addEventListener("keydown", function (event) {
    if (pending) {
      var kind = pending;
      pending = null;
      if (/^[1-9]$/.test(event.key)) {
        event.preventDefault();
        if (kind === "m") { copySuggestion(event.key); }
        if (kind === "i") { dismiss(event.key); }
        return;
      }
    }
    if (event.key === "Enter" && event.ctrlKey && !event.altKey) {
      event.preventDefault();
      submit("save", event.shiftKey);
    } else if (event.key === "Enter" && event.altKey && !event.ctrlKey) {
      event.preventDefault();
      submit("suggest", null);
    } else if (event.ctrlKey && event.key === "ArrowDown") {
      event.preventDefault();
      follow("next");
    } else if (event.ctrlKey && event.key === "ArrowUp") {
      event.preventDefault();
      follow("previous");
    } else if (event.ctrlKey && (event.key === "m" || event.key === "M")) {
      event.preventDefault();
      pending = "m";
    } else if (event.ctrlKey && (event.key === "i" || event.key === "I")) {
      event.preventDefault();
      pending = "i";
    } else if (event.key === "?" && !typing(event.target) && shortcuts) {
      event.preventDefault();
      if (shortcuts.open) { shortcuts.close(); } else { shortcuts.showModal(); }
    }
  });
}());
