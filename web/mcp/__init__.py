"""The MCP server: passwise as a coding agent's escalation tier (tools, pass resources)."""
