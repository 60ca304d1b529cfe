"""Events and the article's scene: shows, festivals, ceremonies, where and when they took place."""
