"""Sources (git, local dirs, installed packages), tree-sitter chunkers, incremental refresh."""
