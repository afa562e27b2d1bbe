-- Run by tests/server/test_neovim.py in a headless Neovim (0.7 or later): start `evallint server` with the built-in
-- LSP client, open a file, wait for its diagnostics and write what vim.diagnostic.get() holds as JSON.
-- EVALLINT_PYTHON: the interpreter to run the server with; EVALLINT_ROOT: the workspace folder;
-- EVALLINT_FILE: the file to open; EVALLINT_OUT: where the JSON goes.
local published = false
local client_id = vim.lsp.start_client({
  name = "evallint",
  cmd = { vim.env.EVALLINT_PYTHON, "-m", "evallint", "server" },
  root_dir = vim.env.EVALLINT_ROOT,
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      published = true
    end,
  },
})
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.EVALLINT_FILE))
vim.lsp.buf_attach_client(0, client_id)
local answered = vim.wait(60000, function() return published end, 20)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { code = d.code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
                        severity = d.severity, source = d.source })
end
local out = io.open(vim.env.EVALLINT_OUT, "w")
out:write(vim.fn.json_encode({ answered = answered, diagnostics = found }))
out:close()
vim.lsp.stop_client(client_id)
vim.cmd("qall!")
