// The admin console's keyboard support. Pages work without it: every action is a link or a form.
//
// Lists marked data-keyboard-list: j / k move the selection, o (or Enter) follows the row's
// link marked data-key="o", c and r press its buttons marked data-key="c" / "r".
// Pages with data-step links (the game viewer): the left and right arrows follow them.
// Everywhere: / focuses the first search or filter field.
(function () {
  "use strict";

  function typing(event) {
    var target = event.target;
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable);
  }

  function rows() {
    var list = document.querySelector("[data-keyboard-list]");
    return list ? Array.prototype.slice.call(list.querySelectorAll("tr[data-row]")) : [];
  }

  var selected = -1;

  function select(index) {
    var all = rows();
    if (all.length === 0) { return; }
    index = Math.max(0, Math.min(all.length - 1, index));
    all.forEach(function (row, i) {
      row.classList.toggle("selected", i === index);
      if (i === index) { row.setAttribute("aria-selected", "true"); } else { row.removeAttribute("aria-selected"); }
    });
    selected = index;
    var link = all[index].querySelector("[data-key='o']");
    if (link) { link.focus({ preventScroll: true }); }
    all[index].scrollIntoView({ block: "nearest" });
  }

  function press(key) {
    var all = rows();
    if (selected < 0 || selected >= all.length) { return false; }
    var control = all[selected].querySelector("[data-key='" + key + "']");
    if (!control) { return false; }
    control.click();
    return true;
  }

  document.addEventListener("focusin", function (event) {
    var row = event.target.closest && event.target.closest("tr[data-row]");
    if (!row) { return; }
    var index = rows().indexOf(row);
    if (index >= 0 && index !== selected) {
      rows().forEach(function (r, i) { r.classList.toggle("selected", i === index); });
      selected = index;
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event)) { return; }
    var handled = true;
    switch (event.key) {
      case "j": select(selected + 1); break;
      case "k": select(selected < 0 ? 0 : selected - 1); break;
      case "o": handled = press("o"); break;
      case "c": handled = press("c"); break;
      case "r": handled = press("r"); break;
      case "/": {
        var field = document.querySelector("form[role=search] input[type=text], form[role=search] input[type=search]");
        if (field) { field.focus(); } else { handled = false; }
        break;
      }
      case "ArrowLeft":
      case "ArrowRight": {
        var step = document.querySelector("[data-step='" + (event.key === "ArrowLeft" ? "prev" : "next") + "']");
        if (step) { step.click(); } else { handled = false; }
        break;
      }
      default: handled = false;
    }
    if (handled) { event.preventDefault(); }
  });
})();
