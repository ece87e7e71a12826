// The HTML report's behaviour: one set of listeners on the document (event delegation), and no
// work at load beyond labelling the "show more" buttons, so that a page of ten thousand
// citations opens about as fast as a page of ten.
// Each status group holds its first results as elements; the others are data (the JSON in
// #cc-data, read on first need) that become elements here a page at a time, and a result's
// details are built only when it is opened. Clicking a highlighted citation shows its verdict
// in a popover, one line per result (a marker may cite several sources); clicking a line opens
// and scrolls to that result.
// (No less-than sign in this file: the tests read one as markup let through.)
(function () {
  "use strict";
  var pop = document.getElementById("cc-pop");
  var data = null;  // the parsed #cc-data, with where[index] = [group, position]
  var groups = {};  // group -> {items, nodes, shown, cursor, more}

  function load() {
    if (data) return data;
    var blob = document.getElementById("cc-data");
    data = blob ? JSON.parse(blob.textContent) : { words: {}, groups: {}, texts: [] };
    data.where = {};
    Object.keys(data.groups).forEach(function (group) {
      data.groups[group].forEach(function (item, position) {
        data.where[item[0]] = [group, position];
      });
    });
    return data;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function add(parent) {
    for (var i = 1; i !== arguments.length; i++) {
      var child = arguments[i];
      parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return parent;
  }

  // A result from the data, as _html.py's _entry writes it: the details are left for body().
  function entry(group, item) {
    var node = element("details", "cc-result cc-" + group);
    node.id = "cc-r" + item[0];
    add(node, add(element("summary"),
      element("span", "cc-num", "#" + item[0]), " ",
      element("span", "cc-chip cc-" + group, load().words[group]), " ",
      element("span", "cc-conf", item[1]), " ",
      element("span", "cc-src", item[2]), " ",
      element("span", "cc-reason", item[3])));
    node.ccItem = item;
    return node;
  }

  // A passage whose texts are a stretch of its source in the data (_html.py's _share_passages):
  // [where, stretch, a, b, c, d, cut] back to [where, before, text, after].
  function unshare(passage) {
    var stretch = load().texts[passage[1]];
    var cut = passage[6];
    return [
      passage[0],
      (cut & 1 ? "…" : "") + stretch.slice(passage[2], passage[3]),
      stretch.slice(passage[3], passage[4]),
      stretch.slice(passage[4], passage[5]) + (cut & 2 ? "…" : ""),
    ];
  }

  // A result's details, as _html.py's _body writes them, built when it is first opened.
  function body(node) {
    var item = node.ccItem;
    if (!item) return;
    node.ccItem = null;
    var box = element("div", "cc-body");
    if (item[4]) add(box, add(element("p"), element("span", "cc-label", item[4]), " " + item[5]));
    var marker = [];
    if (item[6]) marker.push(element("code", "", item[6]));
    if (item[7]) {
      var link = element("a", "", "in the text");
      link.setAttribute("href", "#cc-c" + item[0]);
      marker.push(link);
    }
    if (marker.length) {
      var line = add(element("p"), element("span", "cc-label", "marker"), " ");
      marker.forEach(function (part, n) {
        if (n) add(line, " · ");
        line.appendChild(part);
      });
      box.appendChild(line);
    }
    item[8].forEach(function (passage) {
      if (typeof passage[1] === "number") passage = unshare(passage);
      box.appendChild(element("p", "cc-where", passage[0]));
      var quote = element("blockquote", "cc-passage");
      if (passage[1]) add(quote, passage[1]);
      add(quote, element("mark", "", passage[2]));
      if (passage[3]) add(quote, passage[3]);
      box.appendChild(quote);
    });
    if (!item[8].length) {
      box.appendChild(element("p", "cc-where", "No evidence was found."));
    } else if (item[9]) {
      box.appendChild(element("p", "cc-where",
        "… and " + item[9] + " more passages (in the JSON report)."));
    }
    if (item[10].length) {
      var list = element("dl", "cc-details");
      item[10].forEach(function (pair) {
        add(list, element("dt", "", pair[0]), element("dd", "", pair[1]));
      });
      box.appendChild(list);
    }
    node.appendChild(box);
  }

  function group(name) {
    if (!groups[name]) {
      groups[name] = {
        items: load().groups[name] || [],
        nodes: [],
        shown: 0,
        cursor: 0,
        more: document.querySelector('.cc-more[data-group="' + name + '"]'),
      };
    }
    return groups[name];
  }

  // The result at a position of a group's data, made an element and put in its place: before
  // the next one already shown, or before the "show more" line.
  function place(state, name, position) {
    if (state.nodes[position]) return state.nodes[position];
    var node = entry(name, state.items[position]);
    var next = position + 1;
    while (next !== state.items.length && !state.nodes[next]) next++;
    state.more.parentNode.insertBefore(node, state.nodes[next] || state.more);
    state.nodes[position] = node;
    state.shown++;
    return node;
  }

  // The next `count` results of a group not shown yet (some may have been, out of turn), placed
  // from the last so that each finds the one after it at hand.
  function showMore(name, count) {
    var state = group(name);
    var todo = [];
    while (state.cursor !== state.items.length && todo.length !== count) {
      if (!state.nodes[state.cursor]) todo.push(state.cursor);
      state.cursor++;
    }
    for (var n = todo.length - 1; n !== -1; n--) place(state, name, todo[n]);
    label(state.more);
  }

  // The "show more" line: how many are shown, and buttons for the next page and for all.
  // A page is as many results as the group shows when the page opens.
  function label(more) {
    var page = Number(more.getAttribute("data-shown"));
    var total = Number(more.getAttribute("data-total"));
    var state = groups[more.getAttribute("data-group")];
    var shown = page + (state ? state.shown : 0);
    if (shown === total) {
      more.remove();
      return;
    }
    more.textContent = shown + " of " + total + " shown ";
    [["more", "show " + Math.min(page, total - shown) + " more"], ["all", "show all"]]
      .forEach(function (pair) {
        var button = element("button", "", pair[1]);
        button.type = "button";
        button.setAttribute("data-more", pair[0]);
        more.appendChild(button);
      });
  }

  // The element of result `index`, made from the data when it is not shown yet.
  function resultNode(index) {
    var node = document.getElementById("cc-r" + index);
    if (node) return node;
    var at = load().where[index];
    if (!at) return null;
    var state = group(at[0]);
    var node = place(state, at[0], at[1]);
    label(state.more);
    return node;
  }

  function openAround(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") {
        body(node);
        node.open = true;
      }
    }
  }

  function reveal(index) {
    var entry = resultNode(index);
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
      var entry = resultNode(index);
      if (!entry) return;
      var line = element("button", "cc-pop-line");
      line.type = "button";
      line.setAttribute("data-reveal", index);
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

  function followHash() {
    var match = /^#cc-r(\d+)$/.exec(window.location.hash);
    if (match) reveal(match[1]);
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
    var button = target.closest("[data-more]");
    if (button) {
      var name = button.parentElement.getAttribute("data-group");
      var page = Number(button.parentElement.getAttribute("data-shown"));
      showMore(name, button.getAttribute("data-more") === "all" ? Infinity : page);
      return;
    }
    var summary = target.closest("summary");
    if (summary && summary.parentElement.ccItem) body(summary.parentElement);
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

  // A result opened some other way (find in page, a script) gets its details too.
  document.addEventListener("toggle", function (event) {
    if (event.target.ccItem && event.target.open) body(event.target);
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      pop.hidden = true;
    } else if (event.key === "Enter" && event.target instanceof Element &&
               event.target.classList.contains("cc-cite")) {
      show(event.target);
    }
  });

  window.addEventListener("hashchange", followHash);
  document.querySelectorAll(".cc-more").forEach(label);
  followHash();
})();
