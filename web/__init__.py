"""Flask app and the MCP server for agents."""
