"""What a player keeps or removes: streak reminders and forgetting everything."""
