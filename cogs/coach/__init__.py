"""The coach: Hint and Review judged on what the player could see (advice), and Best possible in hindsight."""
