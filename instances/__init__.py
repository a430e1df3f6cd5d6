"""instances"""
