//! What git tells a hook through its environment and config: `GIT_CONFIG_PARAMETERS`,
//! the comment prefix, and git's message cleanup.
