-- Run by tests/server/test_neovim.py after one of the README's init.lua snippets (given with -u): open a file as a
-- user would, wait until evallint's diagnostics are shown and write them, with the buffer's filetype, as JSON.
-- EVALLINT_FILE: the file to open; EVALLINT_OUT: where the JSON goes.
vim.cmd("edit " .. vim.fn.fnameescape(vim.env.EVALLINT_FILE))
local answered = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 20)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { code = d.code, lnum = d.lnum, col = d.col, severity = d.severity, source = d.source })
end
local out = io.open(vim.env.EVALLINT_OUT, "w")
out:write(vim.fn.json_encode({ answered = answered, filetype = vim.bo.filetype, diagnostics = found }))
out:close()
vim.cmd("qall!")
