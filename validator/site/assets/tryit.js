/* "Try it" on worked examples: each form carries, in its data-try attribute (JSON
   in UTF-8, Base64-encoded), the outcome of every combination of the values it
   offers, computed by the rules core
   when the site was built (no request is made, so it works from file:// too).
   Changing a value shows the outcome of the new combination; text only
   (textContent), never markup. */
(function () {
  "use strict";
  function setUp(form) {
    var data;
    try {
      var bytes = atob(form.getAttribute("data-try"));
      var codes = new Uint8Array(bytes.length);
      for (var b = 0; b < bytes.length; b++) { codes[b] = bytes.charCodeAt(b); }
      data = JSON.parse(new TextDecoder("utf-8").decode(codes));
    } catch (error) { return; }
    var selects = form.querySelectorAll("select");
    var cells = form.querySelectorAll("dd[data-field]");
    function show() {
      var key = [];
      for (var i = 0; i < selects.length; i++) { key.push(selects[i].value); }
      var index = data.table[key.join("|")];
      if (index === undefined) { return; }
      var row = data.outcomes[index];
      for (var j = 0; j < cells.length; j++) {
        cells[j].textContent = row[Number(cells[j].getAttribute("data-field"))];
      }
    }
    for (var k = 0; k < selects.length; k++) { selects[k].addEventListener("change", show); }
    form.addEventListener("submit", function (event) { event.preventDefault(); });
  }
  var forms = document.querySelectorAll("form.try-it[data-try]");
  for (var f = 0; f < forms.length; f++) { setUp(forms[f]); }
}());
