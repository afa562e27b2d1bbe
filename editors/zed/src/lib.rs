// Starts `evallint server` (installed with `pip install 'agentv-evallint[server]'`) for YAML and JSON files:
// the one found on the worktree's PATH, with the worktree's shell environment (an activated virtualenv).
use zed_extension_api::{self as zed, LanguageServerId, Result};

struct Evallint;

impl zed::Extension for Evallint {
    fn new() -> Self {
        Evallint
    }

    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
        let command = worktree
            .which("evallint")
            .ok_or_else(|| "evallint is not on PATH: pip install 'agentv-evallint[server]'".to_string())?;
        Ok(zed::Command { command, args: vec!["server".to_string()], env: worktree.shell_env() })
    }
}

zed::register_extension!(Evallint);
