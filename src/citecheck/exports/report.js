// The HTML report's behaviour: one set of listeners on the document (event delegation), so
// that a page of ten thousand citations costs no more at load than a page of ten.
// Clicking a highlighted citation shows its verdict in a popover, one line per result (a
// marker may cite several sources); clicking a line opens and scrolls to that result.
(function () {
  "use strict";
  var pop = document.getElementById("cc-pop");

  function openAround(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
  }

  function reveal(id) {
    var entry = document.getElementById(id);
    if (!entry) return;
    openAround(entry);
    var previous = document.querySelector(".cc-focus");
    if (previous) previous.classList.remove("cc-focus");
    entry.classList.add("cc-focus");
    entry.scrollIntoView({ block: "center" });
  }

  function resultsAt(highlight) {
    if (highlight.hasAttribute("data-results")) {
      return highlight.getAttribute("data-results").split(" ");
    }
    // A marker citing several sources is nested elements, the worst innermost: all of them.
    var outer = highlight;
    while (outer.parentElement.closest(".cc-cite")) outer = outer.parentElement.closest(".cc-cite");
    var nested = [outer].concat(Array.prototype.slice.call(outer.querySelectorAll(".cc-cite")));
    return nested.reverse().map(function (node) { return node.getAttribute("data-result"); });
  }

  function show(highlight) {
    pop.textContent = "";
    resultsAt(highlight).forEach(function (index) {
      var entry = document.getElementById("cc-r" + index);
      if (!entry) return;
      var line = document.createElement("button");
      line.type = "button";
      line.className = "cc-pop-line";
      line.setAttribute("data-reveal", entry.id);
      entry.querySelector("summary").childNodes.forEach(function (node) {
        line.appendChild(node.cloneNode(true));
      });
      pop.appendChild(line);
    });
    var box = highlight.getBoundingClientRect();
    var width = document.documentElement.clientWidth;
    pop.style.left = Math.max(8, Math.min(box.left, width - 430)) + window.scrollX + "px";
    pop.style.top = box.bottom + window.scrollY + 6 + "px";
    pop.hidden = false;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var line = target.closest("[data-reveal]");
    if (line) {
      pop.hidden = true;
      reveal(line.getAttribute("data-reveal"));
      return;
    }
    var link = target.closest('a[href^="#"]');
    if (link) {
      var destination = document.getElementById(link.getAttribute("href").slice(1));
      if (destination) openAround(destination);
      return;
    }
    var highlight = target.closest(".cc-cite, .cc-claim");
    if (highlight) {
      show(highlight);
    } else if (!pop.contains(target)) {
      pop.hidden = true;
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      pop.hidden = true;
    } else if (event.key === "Enter" && event.target instanceof Element &&
               event.target.classList.contains("cc-cite")) {
      show(event.target);
    }
  });
})();
