// Opens puzzles in pzpr (the puzz.link engine) and reports what it sees, for tests/test_pzpr.py.
// stdin: a JSON list of URLs or pzprv3 texts. stdout: a JSON list, one object per input:
// {pid, rows, cols, clues: [qnum per cell, row by row; -1 none, -2 '?'], url, file, complete, text}
// or {error}. pzpr is looked up beside this script (tests/node/node_modules, see `make pzpr`).
"use strict";
var path = require("path");
var pzpr = require(require.resolve("pzpr", { paths: [path.join(__dirname, "node")] }));

var input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", function (chunk) { input += chunk; });
process.stdin.on("end", function () {
  var out = JSON.parse(input).map(function (data) {
    try {
      var puzzle = new pzpr.Puzzle().open(data);
      var board = puzzle.board, clues = [];
      for (var i = 0; i < board.cell.length; i++) { clues.push(board.cell[i].qnum); }
      var check = puzzle.check(true);
      return { pid: puzzle.pid, rows: board.rows, cols: board.cols, clues: clues,
               url: puzzle.getURL(), file: puzzle.getFileData(),
               complete: check.complete, text: check.text };
    } catch (e) {
      return { error: String(e) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
