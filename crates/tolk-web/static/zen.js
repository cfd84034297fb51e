// Tolk's list view: Ctrl+Enter saves the string being typed without
// leaving the page (with Shift: as needing editing; Alt+Enter suggests
// it), Ctrl+Down and Ctrl+Up move between strings, `?` lists the
// shortcuts, and the next page's strings come as one scrolls to the end.
// Without this script each string's buttons and the "More strings" link
// do the same.
(function () {
  "use strict";
  var list = document.getElementById("zen");
  var shortcuts = document.getElementById("shortcuts");

  function forms() {
    return Array.prototype.slice.call(document.querySelectorAll(".zen-form"));
  }

  function focusIn(form) {
    var field = form && form.querySelector("textarea");
    if (field) { field.focus(); }
  }

  // Saves one string (`action`: save or suggest); resolves to whether
  // it was taken. A refused save keeps the text and shows why.
  function save(form, fuzzy, action) {
    var box = form.querySelector('input[name="fuzzy"]');
    if (box && fuzzy !== null) { box.checked = fuzzy; }
    var data = new URLSearchParams(new FormData(form));
    data.set("action", action);
    var status = form.querySelector(".saved");
    status.textContent = "Saving…";
    // The attribute: `form.action` is the button named "action".
    return fetch(form.getAttribute("action"), {
      method: "POST", body: data, redirect: "manual", credentials: "same-origin"
    }).then(function (answer) {
      if (answer.type === "opaqueredirect") {
        status.textContent = action === "suggest" ? "Suggested" : "Saved";
        // What the field holds now is this person's own: the guard
        // against overwriting what another saved meanwhile served once.
        var shown = form.querySelector('input[name="shown"]');
        if (shown && action === "save") { shown.remove(); }
        form.classList.remove("failed");
        return true;
      }
      return answer.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var why = page.getElementById("action-error");
        status.textContent = "Not saved: " + (why ? why.textContent : "error " + answer.status);
        form.classList.add("failed");
        return false;
      });
    }, function () {
      status.textContent = "Not saved: the server could not be reached.";
      form.classList.add("failed");
      return false;
    });
  }

  document.addEventListener("keydown", function (event) {
    var typing = event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT";
    if (event.key === "?" && !typing && shortcuts) {
      event.preventDefault();
      if (shortcuts.open) { shortcuts.close(); } else { shortcuts.showModal(); }
      return;
    }
    var form = event.target.closest ? event.target.closest(".zen-form") : null;
    if (!form) { return; }
    var all = forms();
    var at = all.indexOf(form);
    var suggesting = event.key === "Enter" && event.altKey && !event.ctrlKey;
    if ((event.key === "Enter" && event.ctrlKey) || suggesting) {
      event.preventDefault();
      if (suggesting && !form.querySelector('button[value="suggest"]')) { return; }
      var action = suggesting ? "suggest" : "save";
      save(form, suggesting ? null : event.shiftKey, action).then(function (saved) {
        if (saved) { focusIn(all[at + 1]); }
      });
    } else if (event.ctrlKey && event.key === "ArrowDown") {
      event.preventDefault();
      focusIn(all[at + 1]);
    } else if (event.ctrlKey && event.key === "ArrowUp") {
      event.preventDefault();
      focusIn(all[at - 1]);
    }
  });

  var more = document.getElementById("more");
  if (list && more && "IntersectionObserver" in window) {
    var observer = new IntersectionObserver(function (entries) {
      if (!entries[0].isIntersecting || more.getAttribute("data-loading")) { return; }
      more.setAttribute("data-loading", "1");
      fetch(more.href, { credentials: "same-origin" }).then(function (answer) {
        return answer.text();
      }).then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        page.querySelectorAll("#zen > li").forEach(function (item) {
          list.appendChild(document.adoptNode(item));
        });
        var next = page.getElementById("more");
        if (next) {
          more.href = next.getAttribute("href");
          more.removeAttribute("data-loading");
        } else {
          observer.disconnect();
          more.parentNode.removeChild(more);
        }
      });
    });
    observer.observe(more);
  }
}());
