"""AgentV 4.42.4's format (`tests:`), declared as format/agentv2 declares AgentV 2.2's."""
